"""Guards every other package relies on: unsafe paths, private files, untrusted content.

Refusing file paths that would leave the project before a call goes out, writing secrets only
their owner may read, and wrapping text that came from the game or the project in the
untrusted-content envelope.
"""
