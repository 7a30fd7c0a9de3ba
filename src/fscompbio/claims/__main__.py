"""``python -m fscompbio.claims``: list the claims, evaluate a finished run, or compare two runs."""

import sys

from . import main

sys.exit(main())
