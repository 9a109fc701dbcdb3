"""``python -m companion.serve``: the start of ``make run`` (``companion.serve.start``);
``--prepare-for N``: the production start's preparation, before its N workers."""

import sys

from companion.serve.start import main, prepare_for_workers

if sys.argv[1:2] == ["--prepare-for"] and len(sys.argv) == 3 and sys.argv[2].isdigit():
    prepare_for_workers(int(sys.argv[2]))
else:
    main()
