package main

import "github.com/godlpack/godlpack/pymodule"

// mathItems are bench/toolbox.py's functions of this job.
var mathItems []pymodule.Item
