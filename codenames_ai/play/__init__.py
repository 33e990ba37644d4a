"""Showing games to people: text rendering now, the interactive terminal game later."""
