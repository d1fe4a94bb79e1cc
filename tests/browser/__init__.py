"""Browser scenarios: run with `make test-browser`."""
