"""Where the project's files are, for tests in any folder below tests/."""

import os

TESTS = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.dirname(TESTS)
SAMPLES = os.path.join(PROJECT_ROOT, "io_samples")
