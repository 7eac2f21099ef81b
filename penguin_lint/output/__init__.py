"""Output safety, below both the reporters and GitHub: text from the
repository made harmless wherever it is written.

``log_guard``: printable text, and no line a CI runner reads as a workflow
command (``sanitize``, ``defuse``, ``safe_line``, ``LogGuard``).
``markdown``: repository text as inert Markdown (``md``, ``code_span``).
"""
