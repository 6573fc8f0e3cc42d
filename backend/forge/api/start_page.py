"""The page served at `/` when the browser app has not been built: how to build it, or use the API."""

# Its only inline content: the CSP allows exactly this text by its hash (security_headers).
START_PAGE_STYLE = """body{font-family:system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
code,pre{background:#f4f4f5;border-radius:4px}pre{padding:.75rem;overflow:auto}"""

START_PAGE = (
    """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Knowledge Forge</title>
<style>"""
    + START_PAGE_STYLE
    + """</style></head>
<body>
<h1>Knowledge Forge</h1>
<p>The engine is running with the <strong>{model}</strong>. The browser app is not built in this
checkout: run <code>make run</code> (it builds it), or <code>cd frontend &amp;&amp; npm install &amp;&amp; npm run build</code>.
Meanwhile, start a session through the API or the CLI.</p>
<h2>From a terminal</h2>
<pre>forge answer "How can a hospital cut emergency wait times without more staff?"</pre>
<h2>Through the API</h2>
<pre>curl -s -X POST localhost:8000/api/v1/sessions -H 'content-type: application/json' \\
     -d '{"problem": "How can a hospital cut emergency wait times without more staff?"}'
curl -s -X POST localhost:8000/api/v1/sessions/&lt;id&gt;/run     # start the agent
curl -N localhost:8000/api/v1/sessions/&lt;id&gt;/stream          # watch DECOMPOSE, ends with review_decompose
curl -N -X POST localhost:8000/api/v1/sessions/&lt;id&gt;/user-input -H 'content-type: application/json' \\
     -d '{"type": "decompose_review", "selected_reframings": [0]}'</pre>
<p>Full reference: <a href="/docs">OpenAPI docs</a>.</p>
</body></html>
"""
)
