"""Where games come from: bytes from files, stdin and URLs, decoded; pages fetched and scraped;
the format detected; PGN read into a game log. The only layer that imports requests and bs4;
may import adjudication, notation and engine."""
