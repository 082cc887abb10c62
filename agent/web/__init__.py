"""The browser page: play the built-in players, replay recorded matches, see where games
are won. `agent.web.serve.run(args)` is `fruit-rage serve`; the page's files are in static/."""
