// Package schema is the Parquet schema tree shared by the runtime, the
// generator and pqgen inspect.
//
// A file stores its schema as a depth-first list of SchemaElements (root
// first); FromElements rebuilds the tree, computes the maximum definition and
// repetition levels of every leaf column, and resolves each node's logical
// type from its LogicalType annotation or, for files written before
// LogicalType existed, from its ConvertedType by the compatibility rules of
// https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
//
// The package also prints and parses the schema text grammar used by
// parquet-java, Arrow and pqgen:
//
//	message m {
//	  required int64 id = 1;
//	  optional binary name (STRING);
//	  optional group tags (LIST) {
//	    repeated group list {
//	      optional binary element (STRING);
//	    }
//	  }
//	}
package schema
