"""``cardarena serve``: sparring against a bot in the browser, and a live page of the
tournaments in a database (docs/web.md).  Needs the ``web`` extra:
``pip install "cardarena[web]"``."""
