// Package page reads the pages of a Parquet column chunk: page headers,
// checksums, decompression, repetition and definition levels and values in
// every encoding, into the typed buffers the runtime hands to generated
// code.
//
// The page layout is described at
// https://parquet.apache.org/docs/file-format/data-pages/ and in
// parquet.thrift (PageHeader, DataPageHeader, DataPageHeaderV2,
// DictionaryPageHeader); the encodings at
// https://parquet.apache.org/docs/file-format/data-pages/encodings/; the
// checksum at https://parquet.apache.org/docs/file-format/data-pages/checksumming/.
//
// # Reading
//
// A [ChunkReader] walks one column chunk: it reads the chunk's bytes with
// bounded ReadAt calls, decodes each page header (at most
// [Limits.MaxHeaderSize] bytes), checks the sizes it declares (compressed
// size within the chunk, uncompressed size at most [Limits.MaxPageSize]),
// verifies the CRC32 when asked, decompresses the page to exactly its
// declared size and decodes it with a [Decoder] into a [Page]: levels
// (one entry per value slot) and the dense non-null values.
//
// Data page v1 bodies are compressed as a whole and start with the
// repetition then definition levels (RLE with a 4-byte length prefix, or
// the deprecated BIT_PACKED); data page v2 keeps both level sections
// uncompressed (RLE without prefix, lengths in the header) and compresses
// only the values, when is_compressed says so. A dictionary page may come
// first in a chunk whether or not the metadata records its offset: it is
// recognised by its page type.
//
// [ChunkReader.SkipPage] passes over a data page without reading its body
// (for page-index driven row selection, with [ChunkOptions.Sparse] so that
// nothing is read ahead), and [ChunkOptions.LazyDictBytes] leaves
// dictionary-encoded byte arrays as indices into the dictionary for
// callers that copy them out anyway.
//
// # Errors
//
// Every failure is an [*Error] naming the column path, row group and page
// ordinal, wrapping one of the sentinels ([ErrHeader], [ErrCRC],
// [ErrTooLarge], [ErrCorrupt], [ErrUnsupported]) and the error of the
// package that detected it (runtime/encode, runtime/compress,
// runtime/meta). Nothing panics on malformed input, and every size read
// from the file is bounded before it is used to allocate.
//
// # Encryption
//
// Page headers and page bodies are separate modules in Parquet modular
// encryption. A [ChunkReader] hands both to an optional [Decryptor] with
// the module's kind and its row group, column and page ordinals.
package page
