package phonesim

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

func cmdEcho(_ *Phone, e *cmdEnv) int {
	args := e.args[1:]
	nl := true
	if len(args) > 0 && args[0] == "-n" {
		nl, args = false, args[1:]
	}
	e.out("%s", strings.Join(args, " "))
	if nl {
		e.out("\n")
	}
	return 0
}

func (p *Phone) cmdLs(e *cmdEnv) int {
	long := false
	var paths []string
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			long = long || strings.Contains(a, "l")
			continue
		}
		paths = append(paths, a)
	}
	if len(paths) == 0 {
		paths = []string{"/"}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	status := 0
	line := func(name string, f *vfile) {
		if !long {
			e.out("%s\n", name)
			return
		}
		e.out("%s 1 shell shell %d %s %s\n", modeString(f), len(f.data), time.Unix(int64(f.mtime), 0).UTC().Format("2006-01-02 15:04"), name)
	}
	for _, name := range paths {
		f, ok := p.lookup(name)
		if !ok {
			e.err("ls: %s: No such file or directory\n", name)
			status = 1
			continue
		}
		if !f.isDir() {
			line(name, f)
			continue
		}
		for _, c := range p.children(name) {
			cf, _ := p.lookup(cleanPath(name) + "/" + c)
			line(c, cf)
		}
	}
	return status
}

func (p *Phone) cmdCat(e *cmdEnv) int {
	if len(e.args) == 1 {
		e.stdout.Write(e.stdin)
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	status := 0
	for _, name := range e.args[1:] {
		f, ok := p.lookup(name)
		switch {
		case !ok:
			e.err("cat: %s: No such file or directory\n", name)
			status = 1
		case f.isDir():
			e.err("cat: %s: Is a directory\n", name)
			status = 1
		default:
			e.stdout.Write(f.data)
		}
	}
	return status
}

func (p *Phone) cmdMkdir(e *cmdEnv) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	parents, status := false, 0
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			parents = parents || strings.Contains(a, "p")
			continue
		}
		if err := p.mkdir(a, 0o777&^e.sh.umask, parents); err != nil {
			e.err("mkdir: %s: %v\n", a, err)
			status = 1
		}
	}
	return status
}

func (p *Phone) cmdTouch(e *cmdEnv) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	status := 0
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if f, ok := p.lookup(a); ok {
			f.mtime = p.clockMtime()
			continue
		}
		if err := p.createFile(a, nil, 0o666&^e.sh.umask); err != nil {
			e.err("touch: '%s': %v\n", a, err)
			status = 1
		}
	}
	return status
}

func (p *Phone) cmdRm(e *cmdEnv) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	force, recursive, status := false, false, 0
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			force = force || strings.Contains(a, "f")
			recursive = recursive || strings.Contains(a, "r") || strings.Contains(a, "R")
			continue
		}
		name := cleanPath(a)
		f, ok := p.files[name]
		switch {
		case !ok:
			if !force {
				e.err("rm: %s: No such file or directory\n", a)
				status = 1
			}
		case f.isDir() && !recursive:
			e.err("rm: %s: Is a directory\n", a)
			status = 1
		default:
			for k := range p.files {
				if k == name || strings.HasPrefix(k, name+"/") {
					delete(p.files, k)
				}
			}
		}
	}
	return status
}

func cmdGrep(_ *Phone, e *cmdEnv) int {
	invert, icase := false, false
	var pattern string
	for _, a := range e.args[1:] {
		switch {
		case a == "-v":
			invert = true
		case a == "-i":
			icase = true
		case a == "-E" || a == "-e":
		case strings.HasPrefix(a, "-") && pattern == "":
		case pattern == "":
			pattern = a
		}
	}
	if icase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		e.err("grep: bad regex '%s'\n", pattern)
		return 2
	}
	found := false
	for _, l := range strings.SplitAfter(string(e.stdin), "\n") {
		if l == "" {
			continue
		}
		if re.MatchString(strings.TrimSuffix(l, "\n")) != invert {
			found = true
			e.out("%s", l)
		}
	}
	if !found {
		return 1
	}
	return 0
}

func cmdHead(_ *Phone, e *cmdEnv) int {
	n := 10
	for i, a := range e.args[1:] {
		if a == "-n" && i+2 < len(e.args) {
			n, _ = strconv.Atoi(e.args[i+2])
		} else if strings.HasPrefix(a, "-") && len(a) > 1 {
			if v, err := strconv.Atoi(a[1:]); err == nil {
				n = v
			}
		}
	}
	lines := strings.SplitAfter(string(e.stdin), "\n")
	for i := 0; i < len(lines) && i < n; i++ {
		e.out("%s", lines[i])
	}
	return 0
}

func cmdSleep(_ *Phone, e *cmdEnv) int {
	if len(e.args) > 1 {
		if f, err := strconv.ParseFloat(e.args[1], 64); err == nil && f > 0 {
			time.Sleep(time.Duration(min(f, 30) * float64(time.Second)))
		}
	}
	return 0
}

// cmdDate is toybox date reading the phone's clock: `date +%s` prints its
// Unix seconds, plain `date` the time as toybox prints it.
func (p *Phone) cmdDate(e *cmdEnv) int {
	p.mu.Lock()
	now := p.life.now
	p.mu.Unlock()
	switch args := e.args[1:]; {
	case len(args) == 0:
		e.out("%s\n", now.UTC().Format("Mon Jan _2 15:04:05 MST 2006"))
	case len(args) == 1 && args[0] == "+%s":
		e.out("%d\n", now.Unix())
	default:
		e.err("date: this phone's date knows +%%s only\n")
		return 1
	}
	return 0
}
