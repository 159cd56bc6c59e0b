"""Play in the browser: the server (the referee), its store, and the page."""
