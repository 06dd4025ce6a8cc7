// Package peers holds the cross-checks and benchmarks that run pqgen beside
// other Parquet implementations (parquet-go, arrow-go). It is a separate
// module so that those libraries never enter the runtime's imports.
package peers
