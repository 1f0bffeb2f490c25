# A documentation site that is not a portfolio: reST pages, alabaster; tests/test_guest_incremental.py
# builds it as it is and with the extension appended to ``extensions``.
project = "Guest"
extensions: list[str] = []
html_theme = "alabaster"
exclude_patterns = ["_build"]
