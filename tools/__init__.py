"""The project's development tools, used by the tests, the benchmarks and the commit hooks; no
part of the site."""
