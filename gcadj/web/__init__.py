"""`gcadj serve`: the adjudicator as a local web app, for players and tournament directors.

The layer above `gcadj.app` (below the CLI): it takes what a browser or ``curl`` sends
(pasted text, uploaded files, a ``.zip`` of an archive, a game page's address), hands
each game to the one pipeline every caller uses (`gcadj.app.pipeline.judge_source`)
through the app's batch runner (`gcadj.app.batch`: the web layer starts no process of its
own), and answers with the viewer, the audit report or JSON lines. Only this package
imports Starlette, uvicorn and python-multipart (the ``serve`` extra), and only when
serving: ``gcadj --help`` never loads them.

- `limits`: the server's settings and limits (body size, zips, deadlines, workers, the
  names it answers to);
- `protocol`: deadlines for slow and idle clients, where uvicorn reads the bytes;
- `guard`: the front door of every request (security headers, ``Host`` and ``Origin``,
  requests at once);
- `receive` and `forms`: bodies read as they stream in, under the size limit and the
  shared budget, large uploads spilled to a private file;
- `uploads`: uploads and zips read under those limits, never extracted;
- `judging`: a check's runs of the batch runner: listing zips, judging sources, and
  what the server's viewer pages add (their downloads);
- `jobs`: the checks' bookkeeping (ids, folders, the queue, expiry) and their pools;
- `pages`: the HTML of the server's own pages and the Content-Security-Policy;
- `app`: the Starlette routes; `serve`: uvicorn.

What is guaranteed against hostile clients, and the options, is in ``docs/security.md``.
"""
