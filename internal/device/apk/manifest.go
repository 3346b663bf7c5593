package apk

import (
	"errors"
	"fmt"
)

// Attribute resource ids of the android namespace (android.R.attr).
const (
	attrLabel = 0x01010001
	attrName  = 0x01010003
)

const noIndex = 0xffffffff

// value is an attribute's value: a literal string, or a resource to
// resolve (ref).
type value struct {
	str string
	ref uint32
}

func (v value) empty() bool { return v.str == "" && v.ref == 0 }

// component is an activity or activity-alias of the manifest.
type component struct {
	name     string
	label    value
	launcher bool // it has a MAIN / LAUNCHER intent filter
}

// manifest is what a label needs from AndroidManifest.xml.
type manifest struct {
	pkg        string
	label      value // <application android:label>
	components []component
}

// attr is one decoded attribute of an element.
type attr struct {
	id   uint32 // its android.R.attr id, 0 when it has none
	name string
	val  value
}

// readManifest decodes a binary AndroidManifest.xml.
func readManifest(b []byte) (manifest, error) {
	var m manifest
	root, err := readChunk(b)
	if err != nil {
		return m, err
	}
	if root.typ != typeXML {
		return m, errors.New("apk: AndroidManifest.xml is not binary XML")
	}
	var (
		pool           stringPool
		resMap         []uint32
		cur            *component
		filterMain     bool
		filterLauncher bool
	)
	err = root.children(func(k chunk) error {
		switch k.typ {
		case typeStringPool:
			pool, err = readStringPool(k)
			return err
		case typeXMLResMap:
			for b := k.data[k.header:]; len(b) >= 4; b = b[4:] {
				resMap = append(resMap, le.Uint32(b))
			}
		case typeXMLStartElem:
			name, attrs, err := element(k, pool, resMap)
			if err != nil {
				return err
			}
			switch name {
			case "manifest":
				m.pkg = find(attrs, 0, "package").str
			case "application":
				m.label = find(attrs, attrLabel, "label")
			case "activity", "activity-alias":
				m.components = append(m.components, component{name: find(attrs, attrName, "name").str, label: find(attrs, attrLabel, "label")})
				cur = &m.components[len(m.components)-1]
			case "intent-filter":
				filterMain, filterLauncher = false, false
			case "action":
				filterMain = filterMain || find(attrs, attrName, "name").str == "android.intent.action.MAIN"
			case "category":
				filterLauncher = filterLauncher || find(attrs, attrName, "name").str == "android.intent.category.LAUNCHER"
			}
		case typeXMLEndElem:
			if len(k.data) < k.header+8 {
				return errShort
			}
			switch pool.get(le.Uint32(k.data[k.header+4:])) {
			case "intent-filter":
				if cur != nil && filterMain && filterLauncher {
					cur.launcher = true
				}
			case "activity", "activity-alias":
				cur = nil
			}
		}
		return nil
	})
	return m, err
}

// element decodes a start element: its name and attributes.
func element(k chunk, pool stringPool, resMap []uint32) (string, []attr, error) {
	ext := k.data[k.header:]
	if len(ext) < 20 {
		return "", nil, errShort
	}
	name := pool.get(le.Uint32(ext[4:]))
	start, size, count := int(le.Uint16(ext[8:])), int(le.Uint16(ext[10:])), int(le.Uint16(ext[12:]))
	if size < 20 || start+size*count > len(ext) {
		return "", nil, fmt.Errorf("apk: element %q: bad attributes", name)
	}
	attrs := make([]attr, 0, count)
	for i := range count {
		a := ext[start+size*i:]
		ni, raw, typ, data := le.Uint32(a[4:]), le.Uint32(a[8:]), a[15], le.Uint32(a[16:])
		at := attr{name: pool.get(ni)}
		if int64(ni) < int64(len(resMap)) {
			at.id = resMap[ni]
		}
		switch {
		case typ == valueReference:
			at.val.ref = data
		case typ == valueString:
			at.val.str = pool.get(data)
		case raw != noIndex:
			at.val.str = pool.get(raw)
		}
		attrs = append(attrs, at)
	}
	return name, attrs, nil
}

// find is the value of the attribute with resource id id (or, without
// one, named name).
func find(attrs []attr, id uint32, name string) value {
	for _, a := range attrs {
		if id != 0 && a.id == id || a.id == 0 && a.name == name {
			return a.val
		}
	}
	return value{}
}
