"""The JSON wire form shared by the API, the command line and batch: request bodies in, reports out."""
