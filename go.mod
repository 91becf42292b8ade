module github.com/godlpack/godlpack

go 1.24
