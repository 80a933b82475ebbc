"""The layers every request passes through before and after its route: the data snapshot and the log line
(`observe`), the body limit (`limits`), caching headers (`caching`) and the admission to the checking pools
(`admission`)."""
