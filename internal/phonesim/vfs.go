package phonesim

import (
	"path"
	"sort"
	"strings"
)

// fixedMtime is the modification time of the files the phone ships with
// (2024-01-01T00:00:00Z), so listings are deterministic.
const fixedMtime = 1704067200

// Unix mode bits used in sync replies.
const (
	modeDir  = 0o040000
	modeFile = 0o100000
)

// vfile is a file or directory of the virtual filesystem.
type vfile struct {
	data  []byte
	mode  uint32 // type and permission bits
	mtime uint32
}

func (f *vfile) isDir() bool { return f.mode&0o170000 == modeDir }

func initialFiles() map[string]*vfile {
	fs := map[string]*vfile{}
	for _, d := range []string{"/", "/sdcard", "/sdcard/Download", "/sdcard/DCIM", "/sdcard/Pictures",
		"/data", "/data/local", "/data/local/tmp", "/system", "/system/bin", "/dev"} {
		fs[d] = &vfile{mode: modeDir | 0o771, mtime: fixedMtime}
	}
	fs["/sdcard/Download/readme.txt"] = &vfile{data: []byte("phonesim virtual storage\n"), mode: modeFile | 0o660, mtime: fixedMtime}
	fs["/system/build.prop"] = &vfile{data: []byte("ro.build.version.release=14\nro.build.id=PSIM.240101.001\n"), mode: modeFile | 0o644, mtime: fixedMtime}
	return fs
}

// cleanPath resolves p against / and maps /storage/emulated/0 to /sdcard.
func cleanPath(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	p = path.Clean(p)
	for _, alias := range []string{"/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard"} {
		if p == alias || strings.HasPrefix(p, alias+"/") {
			p = "/sdcard" + strings.TrimPrefix(p, alias)
		}
	}
	return p
}

// lookup returns the file at p. Callers hold p.mu.
func (p *Phone) lookup(name string) (*vfile, bool) {
	f, ok := p.files[cleanPath(name)]
	return f, ok
}

// writeFile creates or replaces a file, creating missing parent
// directories. It fails when name is a directory. Callers hold p.mu.
func (p *Phone) writeFile(name string, data []byte, mode, mtime uint32) error {
	name = cleanPath(name)
	if f, ok := p.files[name]; ok && f.isDir() {
		return errIsDir
	}
	p.mkdirAll(path.Dir(name))
	if mode&0o777 == 0 {
		mode |= 0o660
	}
	p.files[name] = &vfile{data: data, mode: modeFile | mode&0o7777, mtime: mtime}
	return nil
}

func (p *Phone) mkdirAll(dir string) {
	for d := cleanPath(dir); ; d = path.Dir(d) {
		if _, ok := p.files[d]; !ok {
			p.files[d] = &vfile{mode: modeDir | 0o771, mtime: fixedMtime}
		}
		if d == "/" {
			return
		}
	}
}

// children lists the names directly inside dir, sorted.
func (p *Phone) children(dir string) []string {
	dir = cleanPath(dir)
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	var out []string
	for name := range p.files {
		if name == dir || !strings.HasPrefix(name, prefix) {
			continue
		}
		rest := name[len(prefix):]
		if rest != "" && !strings.Contains(rest, "/") {
			out = append(out, rest)
		}
	}
	sort.Strings(out)
	return out
}

type fsError string

func (e fsError) Error() string { return string(e) }

const (
	errIsDir    fsError = "Is a directory"
	errNotFound fsError = "No such file or directory"
)

// Files is a copy of every file on the phone's storage, by path: what a
// person who takes the phone could read off it (the drills and tests look
// in it for what must not be kept there).
func (p *Phone) Files() map[string][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string][]byte, len(p.files))
	for name, f := range p.files {
		if !f.isDir() {
			out[name] = append([]byte(nil), f.data...)
		}
	}
	return out
}
