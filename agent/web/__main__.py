import sys

from agent.web.serve import main

sys.exit(main())
