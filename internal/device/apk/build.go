package apk

import (
	"archive/zip"
	"bytes"
	"fmt"
	"slices"
	"unicode/utf16"
)

// App is what Build writes into an APK.
type App struct {
	Package  string
	Activity string // the launcher activity, fully qualified; "" for none
	// Labels are the app's label per locale: "" the default, "zh" a
	// language, "zh-CN" a language in a region.
	Labels map[string]string
}

// Build writes an APK holding what Label reads the way aapt2 lays it out:
// a binary AndroidManifest.xml whose application label is a string
// resource, and a resources.arsc with that string in every locale of
// a.Labels. It has no code: the simulator serves it for `pm path`.
func Build(a App) ([]byte, error) {
	if a.Labels[""] == "" {
		return nil, fmt.Errorf("apk: %s needs a default label", a.Package)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{{"AndroidManifest.xml", buildManifest(a)}, {"resources.arsc", buildTable(a)}} {
		// resources.arsc is stored, as Android 11+ requires of apps.
		h := &zip.FileHeader{Name: f.name, Method: zip.Store}
		if f.name == "AndroidManifest.xml" {
			h.Method = zip.Deflate
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// labelID is the resource id of the label: package 0x7f, type 1
// (string), entry 0.
const labelID = 0x7f010000

const androidNS = "http://schemas.android.com/apk/res/android"

func buildManifest(a App) []byte {
	strs := []string{"label", "name", androidNS, "manifest", "package", a.Package, "application", "activity",
		a.Activity, "intent-filter", "action", "android.intent.action.MAIN", "category", "android.intent.category.LAUNCHER"}
	idx := func(s string) uint32 { return uint32(slices.Index(strs, s)) }
	type at struct {
		ns, name, raw uint32
		typ           uint8
		data          uint32
	}
	str := func(name, v string) at {
		return at{idx(androidNS), idx(name), idx(v), valueString, idx(v)}
	}
	var body []byte
	start := func(name string, attrs ...at) {
		ext := u32s(noIndex, idx(name))
		ext = append(ext, u16s(20, 20, uint16(len(attrs)), 0, 0, 0)...)
		for _, x := range attrs {
			ext = append(ext, u32s(x.ns, x.name, x.raw)...)
			ext = append(ext, u16s(8)...)
			ext = append(ext, 0, x.typ)
			ext = append(ext, u32s(x.data)...)
		}
		body = append(body, chunkOf(typeXMLStartElem, u32s(1, noIndex), ext)...)
	}
	end := func(name string) {
		body = append(body, chunkOf(typeXMLEndElem, u32s(1, noIndex), u32s(noIndex, idx(name)))...)
	}
	start("manifest", at{noIndex, idx("package"), idx(a.Package), valueString, idx(a.Package)})
	start("application", at{idx(androidNS), idx("label"), noIndex, valueReference, labelID})
	if a.Activity != "" {
		start("activity", str("name", a.Activity))
		start("intent-filter")
		start("action", str("name", "android.intent.action.MAIN"))
		end("action")
		start("category", str("name", "android.intent.category.LAUNCHER"))
		end("category")
		end("intent-filter")
		end("activity")
	}
	end("application")
	end("manifest")
	inner := append(poolOf(strs, false), chunkOf(typeXMLResMap, nil, u32s(attrLabel, attrName))...)
	return chunkOf(typeXML, nil, append(inner, body...))
}

func buildTable(a App) []byte {
	locales := make([]string, 0, len(a.Labels))
	for l := range a.Labels {
		locales = append(locales, l)
	}
	slices.Sort(locales) // "" (the default) first
	values := make([]string, len(locales))
	for i, l := range locales {
		values[i] = a.Labels[l]
	}
	var types []byte
	types = append(types, chunkOf(0x0202, append([]byte{1, 0, 0, 0}, u32s(1)...), u32s(0))...)
	for i, l := range locales {
		lang, region := splitLocale(l)
		cfg := make([]byte, 64)
		le.PutUint32(cfg, 64)
		copy(cfg[8:10], lang)
		copy(cfg[10:12], region)
		hdr := append([]byte{1, 0, 0, 0}, u32s(1, 8+12+64+4)...)
		hdr = append(hdr, cfg...)
		ent := append(u16s(8, 0), u32s(0)...)
		ent = append(ent, u16s(8)...)
		ent = append(ent, 0, valueString)
		ent = append(ent, u32s(uint32(i))...)
		types = append(types, chunkOf(typeTableType, hdr, append(u32s(0), ent...))...)
	}
	typePool, keyPool := poolOf([]string{"string"}, false), poolOf([]string{"app_name"}, false)
	name := make([]byte, 256)
	for i, u := range utf16.Encode([]rune(a.Package)) {
		if i < 127 {
			le.PutUint16(name[2*i:], u)
		}
	}
	phdr := append(u32s(0x7f), name...)
	phdr = append(phdr, u32s(288, 0, uint32(288+len(typePool)), 0, 0)...)
	pkg := chunkOf(typeTablePackage, phdr, slices.Concat(typePool, keyPool, types))
	return chunkOf(typeTable, u32s(1), append(poolOf(values, true), pkg...))
}

// chunkOf is a chunk of type typ: its header (the 8 common bytes, then
// hdr), then body.
func chunkOf(typ uint16, hdr, body []byte) []byte {
	b := u16s(typ, uint16(8+len(hdr)))
	b = append(b, u32s(uint32(8+len(hdr)+len(body)))...)
	return slices.Concat(b, hdr, body)
}

// poolOf is a string pool of strs, UTF-8 or UTF-16.
func poolOf(strs []string, utf8 bool) []byte {
	var data []byte
	offs := make([]uint32, len(strs))
	for i, s := range strs {
		offs[i] = uint32(len(data))
		if utf8 {
			data = append(data, lenBytes8(len(utf16.Encode([]rune(s))))...)
			data = append(data, lenBytes8(len(s))...)
			data = append(data, s...)
			data = append(data, 0)
			continue
		}
		u := utf16.Encode([]rune(s))
		data = append(data, u16s(uint16(len(u)))...)
		data = append(data, u16s(u...)...)
		data = append(data, 0, 0)
	}
	for len(data)%4 != 0 {
		data = append(data, 0)
	}
	flags := uint32(0)
	if utf8 {
		flags = poolUTF8
	}
	hdr := u32s(uint32(len(strs)), 0, flags, uint32(28+4*len(strs)), 0)
	return chunkOf(typeStringPool, hdr, append(u32s(offs...), data...))
}

func lenBytes8(n int) []byte {
	if n < 0x80 {
		return []byte{byte(n)}
	}
	return []byte{byte(n>>8) | 0x80, byte(n)}
}

func u16s(v ...uint16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		le.PutUint16(b[2*i:], x)
	}
	return b
}

func u32s(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		le.PutUint32(b[4*i:], x)
	}
	return b
}
