package analyze
