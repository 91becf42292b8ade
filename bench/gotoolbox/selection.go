package main

import "github.com/godlpack/godlpack/pymodule"

// selectionItems are bench/toolbox.py's functions of this job.
var selectionItems []pymodule.Item
