"""Build the EAT's direct links: how often people answered each word with each other word.

Run by hand, never imported by the package:

    python models/build_eat_links.py [PATH/EATnew.zip]   # writes models/eat-links.npz

The Edinburgh Associative Thesaurus (Kiss, Armstrong, Milroy and Piper, 1968-71; Pajek version
EATnew.zip, from github bavla/Nets data/Pajek/dic/EAT/) showed 8,210 stimulus words to about
100 people each. A link cue -> response keeps P(response | cue), the share of the cue's answers
that were the response, for every pair at least ``MIN_COUNT`` people gave (one person's answer
is noise). Words are the EAT's keys (lower case, letters only, phrases as a_b), as
``codenames_ai.vectors.norms.read_eat`` reads them. Stored sorted by (cue, response) so a
lookup is one binary search: ``words`` (unicode), ``cues`` and ``responses`` (int32 indices
into ``words``), ``strengths`` (float16), ``meta`` (JSON: source, licence, attribution,
build command, counts). The attribution: Edinburgh Associative Thesaurus, University of
Edinburgh, Open Government Licence v3.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from codenames_ai.vectors.norms import read_eat  # noqa: E402

MIN_COUNT = 2
DEFAULT_SOURCE = Path("/work/shared/humandata/eat/EATnew.zip")
OUT = Path(__file__).resolve().parent / "eat-links.npz"


def main(source: Path) -> None:
    norms = read_eat(source)
    kept = sorted((cue, response, count / norms.totals[cue])
                  for (cue, response), count in norms.counts.items()
                  if count >= MIN_COUNT and cue != response)
    words = sorted({cue for cue, _, _ in kept} | {response for _, response, _ in kept})
    index = {word: i for i, word in enumerate(words)}
    cues = np.array([index[cue] for cue, _, _ in kept], dtype=np.int32)
    responses = np.array([index[response] for _, response, _ in kept], dtype=np.int32)
    order = np.lexsort((responses, cues))
    meta = {"source": "Edinburgh Associative Thesaurus (Kiss, Armstrong, Milroy and Piper, "
                      "1968-71), Pajek version EATnew.zip (github bavla/Nets)",
            "licence": "Open Government Licence v3",
            "attribution": "Edinburgh Associative Thesaurus, University of Edinburgh, Open "
                           "Government Licence v3",
            "build_command": "python models/build_eat_links.py", "min_count": MIN_COUNT,
            "links": len(kept), "words": len(words), "cues": len(norms.totals)}
    np.savez_compressed(OUT, words=np.array(words), cues=cues[order],
                        responses=responses[order],
                        strengths=np.array([s for _, _, s in kept], dtype=np.float16)[order],
                        meta=np.array(json.dumps(meta)))
    print(json.dumps({**meta, "bytes": OUT.stat().st_size}))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE)
