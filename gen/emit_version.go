package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime"
)

// emitVersionGuard emits the check that the runtime in the build supports
// the generated-code version of this file (runtime.EnforceVersion): a
// mismatch fails to compile at one of the two lines of the template
// "version" (gen/templates/header.tmpl).
func emitVersionGuard(f *jen.File) { fill(f, "version", runtime.GenVersion) }
