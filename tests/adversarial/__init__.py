"""The adversarial probe as a suite: hostile inputs to the web API, record parser, vector
readers and the CLI, each expecting one clear refusal."""
