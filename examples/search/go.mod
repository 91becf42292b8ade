module example.com/search

go 1.24

require github.com/godlpack/godlpack v0.0.0

// Until github.com/godlpack/godlpack is published, a checkout of it; the sdist vendors it (godlpack.build).
replace github.com/godlpack/godlpack => ../..
