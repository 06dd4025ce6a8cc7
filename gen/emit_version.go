package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime"
)

// emitVersionGuard emits the check that the runtime in the build supports
// the generated-code version of this file (runtime.EnforceVersion): a
// mismatch fails to compile at one of these two lines.
func emitVersionGuard(f *jen.File) {
	f.Comment("The generated-code version of this file, checked against the runtime's at")
	f.Comment("compile time: an error on one of the lines below means pqgen and the")
	f.Comment("runtime in the build are of versions that do not fit; regenerate with the")
	f.Comment("pqgen of the runtime's module version.")
	f.Const().Defs(
		jen.Id("_").Op("=").Qual(pathRuntime, "EnforceVersion").Call(jen.Lit(runtime.GenVersion).Op("-").Qual(pathRuntime, "MinGenVersion")).Comment("the runtime no longer supports this code"),
		jen.Id("_").Op("=").Qual(pathRuntime, "EnforceVersion").Call(jen.Qual(pathRuntime, "GenVersion").Op("-").Lit(runtime.GenVersion)).Comment("the runtime is older than this code"),
	)
	f.Line()
}
