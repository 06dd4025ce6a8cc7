// Package page reads and builds the pages of a Parquet column chunk: page
// headers, checksums, compression, repetition and definition levels and
// values in every encoding, and page encryption through hooks.
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
// bounded ReadAt calls (or, from an [InMemory] file, takes them in place),
// decodes each page header (at most
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
// # Writing
//
// A [Builder] appends whole pages (header, then body) to a caller's
// buffer: [Builder.AppendDataPage] encodes the levels of a data page v1
// (RLE with length prefixes, compressed with the values) or v2 (levels
// uncompressed, lengths in the header), compresses with the Builder's
// codec and level, adds the CRC32 when asked, and
// [Builder.AppendDictionaryPage] does the same for a dictionary page. Once
// warm a Builder allocates nothing per page. With an [Encryptor] it seals
// each page as modular encryption stores it: the body as a page module,
// then the header (whose sizes and CRC describe the sealed body) as a page
// header module.
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
// encryption. A [ChunkReader] hands both to an optional [Decryptor], a
// [Builder] to an optional [Encryptor], with the module's kind and page
// ordinal (the hook knows its chunk's row group and column).
package page
