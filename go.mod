module github.com/robocensus/robocensus

go 1.26
