"""`gcadj serve`: the adjudicator as a local web app, for players and tournament directors.

The layer above `gcadj.app` (below the CLI): it takes what a browser or ``curl`` sends
(pasted text, uploaded files, a ``.zip`` of an archive, a game page's address), hands
each game to the one pipeline every caller uses (`gcadj.app.pipeline.judge_source`)
through the app's batch runner (`gcadj.app.batch`: the web layer starts no process of its
own), and answers with the viewer, the audit report or JSON lines. Only `gcadj.web.app`
and `gcadj.web.serve` import Starlette and uvicorn (the ``serve`` extra), and only when
serving: ``gcadj --help`` never loads them.

- `limits`: the server's settings and limits (body size, zips, deadlines, workers);
- `uploads`: uploads and zips read in memory under those limits, never extracted;
- `judging`: a check's runs of the batch runner: listing zips, judging sources, and
  what the server's viewer pages add (their downloads);
- `jobs`: the checks' bookkeeping (ids, folders, the queue, expiry) and their pools;
- `pages`: the HTML of the server's own pages and the Content-Security-Policy;
- `app`: the Starlette routes; `serve`: uvicorn.
"""
