package apk

import (
	"errors"
	"fmt"
	"strings"
)

// table is a decoded resources.arsc: its global strings and, per package
// and type id, the type chunks holding each configuration's entries.
type table struct {
	strings stringPool
	types   map[uint32][]chunk // key: package id << 8 | type id
}

// readTable decodes resources.arsc.
func readTable(b []byte) (*table, error) {
	root, err := readChunk(b)
	if err != nil {
		return nil, err
	}
	if root.typ != typeTable {
		return nil, errors.New("apk: resources.arsc is not a resource table")
	}
	t := &table{types: map[uint32][]chunk{}}
	err = root.children(func(k chunk) error {
		switch k.typ {
		case typeStringPool:
			t.strings, err = readStringPool(k)
			return err
		case typeTablePackage:
			return t.addPackage(k)
		}
		return nil
	})
	return t, err
}

func (t *table) addPackage(k chunk) error {
	if k.header < 284 {
		return errShort
	}
	id := le.Uint32(k.data[8:])
	offset := uint32(0)
	if k.header >= 288 {
		offset = le.Uint32(k.data[284:])
	}
	return k.children(func(c chunk) error {
		if c.typ == typeTableType && len(c.data) >= 20 {
			key := id<<8 | (uint32(c.data[8])+offset)&0xff
			t.types[key] = append(t.types[key], c)
		}
		return nil
	})
}

// resolve is the string resource id stands for in the locale (language
// and region, lower and upper case: "zh", "CN"), following references.
func (t *table) resolve(id uint32, lang, region string) (string, error) {
	for range 8 {
		v, ok := t.best(id, lang, region)
		if !ok {
			return "", fmt.Errorf("apk: resource %#08x has no value", id)
		}
		switch v.typ {
		case valueString:
			return t.strings.get(v.data), nil
		case valueReference:
			id = v.data
		default:
			return "", fmt.Errorf("apk: resource %#08x is not a string (type %#x)", id, v.typ)
		}
	}
	return "", fmt.Errorf("apk: resource %#08x: references loop", id)
}

type resValue struct {
	typ  uint8
	data uint32
}

// best is the entry's value in the configuration that fits the locale
// best: language and region, the language alone, the language in another
// region (except Chinese, whose regions differ in script), the default.
func (t *table) best(id uint32, lang, region string) (resValue, bool) {
	var out resValue
	score := 0
	for _, c := range t.types[id>>24<<8|id>>16&0xff] {
		v, ok := entry(c, id&0xffff)
		if !ok {
			continue
		}
		s := localeScore(c, lang, region)
		if s > score {
			out, score = v, s
		}
	}
	return out, score > 0
}

// localeScore rates a type chunk's configuration for the locale; 0 when
// it does not fit.
func localeScore(c chunk, lang, region string) int {
	if len(c.data) < 32 {
		return 0
	}
	cfg := c.data[20:]
	l, r := cfg[8:10], cfg[10:12]
	switch {
	case l[0] == 0 && l[1] == 0:
		return 1
	case l[0]&0x80 != 0 || !strings.EqualFold(string(l), lang) && legacyLang[lang] != string(l):
		return 0
	case r[0] == 0 && r[1] == 0:
		return 3
	case strings.EqualFold(string(r), region):
		return 4
	case lang != "zh":
		return 2
	}
	return 0
}

// legacyLang are the old ISO 639 codes resource tables keep for three
// languages whose codes changed (Indonesian is "in", not "id").
var legacyLang = map[string]string{"id": "in", "he": "iw", "yi": "ji"}

// entry reads entry e of a type chunk: dense (32-bit or 16-bit offsets)
// or sparse, plain or compact.
func entry(c chunk, e uint32) (resValue, bool) {
	b := c.data
	flags, count, start := b[9], le.Uint32(b[12:]), int(le.Uint32(b[16:]))
	offs := b[c.header:]
	off := -1
	switch {
	case flags&0x01 != 0: // sparse: (index u16, offset/4 u16) sorted by index
		for i := 0; i < int(count) && 4*i+4 <= len(offs); i++ {
			if uint32(le.Uint16(offs[4*i:])) == e {
				off = 4 * int(le.Uint16(offs[4*i+2:]))
				break
			}
		}
	case flags&0x02 != 0: // 16-bit offsets, divided by 4
		if e < count && int(2*e+2) <= len(offs) {
			if o := le.Uint16(offs[2*e:]); o != 0xffff {
				off = 4 * int(o)
			}
		}
	default:
		if e < count && int(4*e+4) <= len(offs) {
			if o := le.Uint32(offs[4*e:]); o != noIndex {
				off = int(o)
			}
		}
	}
	if off < 0 || start+off+8 > len(b) {
		return resValue{}, false
	}
	ent := b[start+off:]
	size, eflags := int(le.Uint16(ent)), le.Uint16(ent[2:])
	switch {
	case eflags&0x08 != 0: // compact: the type in the flags' high byte
		return resValue{typ: uint8(eflags >> 8), data: le.Uint32(ent[4:])}, true
	case eflags&0x01 != 0: // a complex entry (a style, a plural): no single value
		return resValue{}, false
	case size+8 > len(ent):
		return resValue{}, false
	}
	return resValue{typ: ent[size+3], data: le.Uint32(ent[size+4:])}, true
}
