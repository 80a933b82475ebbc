"""The HTTP API: routes, problem+json answers and the body limit."""
