package apk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf16"
)

// Chunk types of Android's binary resource formats
// (frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h).
const (
	typeStringPool   = 0x0001
	typeTable        = 0x0002
	typeXML          = 0x0003
	typeXMLStartElem = 0x0102
	typeXMLEndElem   = 0x0103
	typeXMLResMap    = 0x0180
	typeTablePackage = 0x0200
	typeTableType    = 0x0201
)

// Value data types (Res_value.dataType).
const (
	valueReference = 0x01
	valueString    = 0x03
)

// poolUTF8 is the string pool flag of UTF-8 strings.
const poolUTF8 = 0x100

var errShort = errors.New("apk: truncated resource data")

var le = binary.LittleEndian

// chunk is one chunk: its type, its header size and its bytes (header
// included).
type chunk struct {
	typ    uint16
	header int
	data   []byte
}

// readChunk reads the chunk at the start of b.
func readChunk(b []byte) (chunk, error) {
	if len(b) < 8 {
		return chunk{}, errShort
	}
	typ, hdr, size := le.Uint16(b), int(le.Uint16(b[2:])), int(le.Uint32(b[4:]))
	if hdr < 8 || size < hdr || size > len(b) {
		return chunk{}, fmt.Errorf("apk: bad chunk %#x: header %d, size %d of %d bytes", typ, hdr, size, len(b))
	}
	return chunk{typ: typ, header: hdr, data: b[:size]}, nil
}

// children calls fn for each chunk after c's header.
func (c chunk) children(fn func(chunk) error) error {
	for b := c.data[c.header:]; len(b) > 0; {
		k, err := readChunk(b)
		if err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
		b = b[len(k.data):]
	}
	return nil
}

// stringPool is a decoded ResStringPool.
type stringPool []string

// readStringPool decodes a string pool chunk.
func readStringPool(c chunk) (stringPool, error) {
	b := c.data
	if c.typ != typeStringPool || c.header < 28 {
		return nil, errors.New("apk: not a string pool")
	}
	count, flags, start := int(le.Uint32(b[8:])), le.Uint32(b[16:]), int(le.Uint32(b[20:]))
	if count < 0 || c.header+4*count > len(b) || start > len(b) {
		return nil, errShort
	}
	pool := make(stringPool, count)
	for i := range pool {
		off := start + int(le.Uint32(b[c.header+4*i:]))
		if off < 0 || off >= len(b) {
			return nil, errShort
		}
		var err error
		if flags&poolUTF8 != 0 {
			pool[i], err = utf8At(b[off:])
		} else {
			pool[i], err = utf16At(b[off:])
		}
		if err != nil {
			return nil, err
		}
	}
	return pool, nil
}

// get is the string at i, "" when there is none.
func (p stringPool) get(i uint32) string {
	if int64(i) >= int64(len(p)) {
		return ""
	}
	return p[i]
}

// utf8At reads a UTF-8 pool string: its length in UTF-16 units and in
// bytes (one or two bytes each), then the bytes.
func utf8At(b []byte) (string, error) {
	_, n := len8(b)
	if n == 0 {
		return "", errShort
	}
	size, m := len8(b[n:])
	if m == 0 || n+m+size > len(b) {
		return "", errShort
	}
	return string(b[n+m : n+m+size]), nil
}

func len8(b []byte) (v, n int) {
	switch {
	case len(b) >= 1 && b[0]&0x80 == 0:
		return int(b[0]), 1
	case len(b) >= 2:
		return int(b[0]&0x7f)<<8 | int(b[1]), 2
	}
	return 0, 0
}

// utf16At reads a UTF-16 pool string: its length in units (one or two
// u16), then the units.
func utf16At(b []byte) (string, error) {
	if len(b) < 2 {
		return "", errShort
	}
	n, skip := int(le.Uint16(b)), 2
	if n&0x8000 != 0 {
		if len(b) < 4 {
			return "", errShort
		}
		n, skip = (n&0x7fff)<<16|int(le.Uint16(b[2:])), 4
	}
	if skip+2*n > len(b) {
		return "", errShort
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = le.Uint16(b[skip+2*i:])
	}
	return string(utf16.Decode(u)), nil
}
