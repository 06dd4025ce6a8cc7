// Package schema is the Parquet schema tree shared by the runtime, the
// generator and pqgen inspect.
//
// A file stores its schema as a depth-first list of SchemaElements (root
// first); FromElements rebuilds the tree, computes the maximum definition and
// repetition levels of every leaf column, and resolves each node's logical
// type from its LogicalType annotation or, for files written before
// LogicalType existed, from its ConvertedType by the compatibility rules of
// https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
// The time ConvertedTypes (TIME_MILLIS, TIME_MICROS, TIMESTAMP_MILLIS,
// TIMESTAMP_MICROS) stored without a LogicalType stay so (Node.ConvertedOnly):
// the schema text names them by their legacy names and a file written with
// the schema stores them alone again, since readers take them as local time
// where the LogicalType they stand for says UTC.
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
