package main

import "github.com/godlpack/godlpack/pymodule"

// arithItems are bench/toolbox.py's functions of this job.
var arithItems []pymodule.Item
