package main

import "github.com/godlpack/godlpack/pymodule"

// productItems are bench/toolbox.py's functions of this job.
var productItems []pymodule.Item
