module github.com/robocensus/robocensus

go 1.26

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/klauspost/compress v1.20.3
)
