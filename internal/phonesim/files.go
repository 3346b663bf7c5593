package phonesim

import (
	"path"
	"sort"
	"strconv"
	"strings"
)

// The shell's file tools as toybox and mksh have them on a phone:
// printf, mv, find and umask, and the rules every write follows (a
// missing directory, a full /data, the umask).

const (
	errNoSpace fsError = "No space left on device"
	errNotDir  fsError = "Not a directory"
	errExists  fsError = "File exists"
)

// clockMtime is the phone clock's time as a file's modification time.
// Callers hold p.mu.
func (p *Phone) clockMtime() uint32 { return uint32(p.life.now.Unix()) }

// writable says whether a file can be written at name: its directory
// exists, and /data is not full (FaultDataFull). Callers hold p.mu.
func (p *Phone) writable(name string) error {
	name = cleanPath(name)
	if d, ok := p.files[path.Dir(name)]; !ok {
		return errNotFound
	} else if !d.isDir() {
		return errNotDir
	}
	if p.faults.dataFull && (name == "/data" || strings.HasPrefix(name, "/data/")) {
		return errNoSpace
	}
	return nil
}

// createFile writes a file as a shell command does: its directory must
// exist, and the file gets mode and the phone clock's time. Callers hold
// p.mu.
func (p *Phone) createFile(name string, data []byte, mode uint32) error {
	if err := p.writable(name); err != nil {
		return err
	}
	return p.writeFile(name, data, mode, p.clockMtime())
}

// mkdir makes a directory with mode; with parents (-p) it makes the
// missing ones above it too and an existing one is fine. Callers hold
// p.mu.
func (p *Phone) mkdir(name string, mode uint32, parents bool) error {
	name = cleanPath(name)
	if f, ok := p.files[name]; ok {
		if parents && f.isDir() {
			return nil
		}
		return errExists
	}
	if parents && name != "/" {
		if err := p.mkdir(path.Dir(name), mode, true); err != nil {
			return err
		}
	}
	if err := p.writable(name); err != nil {
		return err
	}
	p.files[name] = &vfile{mode: modeDir | mode&0o777, mtime: p.clockMtime()}
	return nil
}

// cmdUmask sets the shell's umask (an octal number) or prints it.
func cmdUmask(_ *Phone, e *cmdEnv) int {
	if len(e.args) < 2 {
		e.out("%04o\n", e.sh.umask)
		return 0
	}
	m, err := strconv.ParseUint(e.args[1], 8, 32)
	if err != nil || m > 0o777 {
		e.err("umask: bad number: %s\n", e.args[1])
		return 1
	}
	e.sh.umask = uint32(m)
	return 0
}

// cmdPrintf is toybox printf: the format's backslash escapes and %s, %d,
// %c and %%, the format used again while arguments are left; arguments
// are never interpreted.
func cmdPrintf(_ *Phone, e *cmdEnv) int {
	if len(e.args) < 2 {
		e.err("printf: Needs 1 argument\n")
		return 1
	}
	format, args := e.args[1], e.args[2:]
	for {
		used, status := printfOnce(e, format, args)
		if status != 0 {
			return status
		}
		args = args[used:]
		if used == 0 || len(args) == 0 {
			return 0
		}
	}
}

// printfOnce writes format once and says how many arguments it took.
func printfOnce(e *cmdEnv, format string, args []string) (int, int) {
	used := 0
	next := func() string {
		if used < len(args) {
			used++
			return args[used-1]
		}
		return ""
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\' && i+1 < len(format):
			i++
			switch format[i] {
			case 'n':
				e.stdout.WriteByte('\n')
			case 't':
				e.stdout.WriteByte('\t')
			case 'r':
				e.stdout.WriteByte('\r')
			case '\\':
				e.stdout.WriteByte('\\')
			default:
				e.stdout.WriteByte('\\')
				e.stdout.WriteByte(format[i])
			}
		case c == '%' && i+1 < len(format):
			i++
			switch format[i] {
			case '%':
				e.stdout.WriteByte('%')
			case 's':
				e.stdout.WriteString(next())
			case 'c':
				if a := next(); a != "" {
					e.stdout.WriteByte(a[0])
				}
			case 'd', 'i':
				a := next()
				n, err := strconv.ParseInt(a, 10, 64)
				if err != nil && a != "" {
					e.err("printf: invalid number '%s'\n", a)
					return used, 1
				}
				e.out("%d", n)
			default:
				e.err("printf: %%%c: invalid format\n", format[i])
				return used, 1
			}
		default:
			e.stdout.WriteByte(c)
		}
	}
	return used, 0
}

// cmdMv renames SRC to DST (into DST when it is a directory); a file
// renamed over another replaces it in one step.
func (p *Phone) cmdMv(e *cmdEnv) int {
	var names []string
	for _, a := range e.args[1:] {
		if !strings.HasPrefix(a, "-") {
			names = append(names, a)
		}
	}
	if len(names) != 2 {
		e.err("mv: needs 2 arguments (this phone's mv takes SRC DST)\n")
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	src, dst := cleanPath(names[0]), cleanPath(names[1])
	f, ok := p.files[src]
	if !ok {
		e.err("mv: bad '%s': No such file or directory\n", names[0])
		return 1
	}
	if d, ok := p.files[dst]; ok && d.isDir() {
		dst = path.Join(dst, path.Base(src))
	}
	if d, ok := p.files[path.Dir(dst)]; !ok || !d.isDir() {
		e.err("mv: rename '%s' to '%s': No such file or directory\n", names[0], names[1])
		return 1
	}
	if d, ok := p.files[dst]; ok && d.isDir() != f.isDir() {
		e.err("mv: rename '%s' to '%s': Is a directory\n", names[0], names[1])
		return 1
	}
	moved := map[string]*vfile{}
	for k, v := range p.files {
		if k == src || strings.HasPrefix(k, src+"/") {
			moved[dst+strings.TrimPrefix(k, src)] = v
			delete(p.files, k)
		}
	}
	for k, v := range moved {
		p.files[k] = v
	}
	return 0
}

// cmdFind is toybox find with the tests -type f|d, -name PATTERN and
// -mtime [+-]N (N days of the phone's clock) and the actions -print and
// -delete.
func (p *Phone) cmdFind(e *cmdEnv) int {
	args := e.args[1:]
	var roots []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		roots, args = append(roots, args[0]), args[1:]
	}
	if len(roots) == 0 {
		roots = []string{"/"}
	}
	type test func(name string, f *vfile, now int64) bool
	var tests []test
	del, print := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		arg := ""
		if a == "-type" || a == "-name" || a == "-mtime" {
			if i+1 >= len(args) {
				e.err("find: '%s' needs 1 arg\n", a)
				return 1
			}
			i++
			arg = args[i]
		}
		switch a {
		case "-type":
			if arg != "f" && arg != "d" {
				e.err("find: bad -type '%s' (this phone's find knows f and d)\n", arg)
				return 1
			}
			dir := arg == "d"
			tests = append(tests, func(_ string, f *vfile, _ int64) bool { return f.isDir() == dir })
		case "-name":
			pat := arg
			tests = append(tests, func(name string, _ *vfile, _ int64) bool {
				ok, _ := path.Match(pat, path.Base(name))
				return ok
			})
		case "-mtime":
			sign, num := byte(0), arg
			if num != "" && (num[0] == '+' || num[0] == '-') {
				sign, num = num[0], num[1:]
			}
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil {
				e.err("find: %s not [+-]N\n", arg)
				return 1
			}
			limit := n * 86400
			tests = append(tests, func(_ string, f *vfile, now int64) bool {
				age := now - int64(f.mtime)
				switch sign {
				case '+':
					return age > limit
				case '-':
					return age < limit
				}
				return age == limit
			})
		case "-delete":
			del = true
		case "-print":
			print = true
		default:
			e.err("find: bad arg '%s'\n", a)
			return 1
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.life.now.Unix()
	status := 0
	for _, root := range roots {
		r := cleanPath(root)
		if _, ok := p.files[r]; !ok {
			e.err("find: '%s': No such file or directory\n", root)
			status = 1
			continue
		}
		var found []string
		for name := range p.files {
			if name == r || strings.HasPrefix(name, strings.TrimSuffix(r, "/")+"/") {
				found = append(found, name)
			}
		}
		// Deepest first, as -delete walks.
		sort.Slice(found, func(i, j int) bool { return found[i] > found[j] })
		for _, name := range found {
			f := p.files[name]
			ok := true
			for _, t := range tests {
				ok = ok && t(name, f, now)
			}
			if !ok {
				continue
			}
			shown := root + strings.TrimPrefix(name, r)
			if print || !del {
				e.out("%s\n", shown)
			}
			if del {
				if f.isDir() && len(p.children(name)) > 0 {
					e.err("find: '%s': Directory not empty\n", shown)
					status = 1
					continue
				}
				delete(p.files, name)
			}
		}
	}
	return status
}

// modeString is a file's type and permissions as ls -l shows them.
func modeString(f *vfile) string {
	var b strings.Builder
	if f.isDir() {
		b.WriteByte('d')
	} else {
		b.WriteByte('-')
	}
	for i := 8; i >= 0; i-- {
		if f.mode&(1<<uint(i)) != 0 {
			b.WriteByte("rwx"[(8-i)%3])
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}
