package phonesim

import (
	"strings"
)

func (p *Phone) cmdMonkey(e *cmdEnv) int {
	args := e.args[1:]
	for _, a := range args {
		e.err("  bash arg: %s\n", a)
	}
	var pkg string
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "-p" {
			pkg = args[i+1]
		}
	}
	app, ok := p.resolvePkg(pkg)
	a, _ := findApp(app)
	if pkg == "" || !ok || !(a.Launcher || app == pkgLauncher) {
		e.err("** No activities found to run, monkey aborted.\n")
		return 1
	}
	e.out("args: [%s]\n", strings.Join(args, ", "))
	for _, x := range args {
		e.out(" arg: %q\n", x)
	}
	e.out("data=%q\ndata=\"android.intent.category.LAUNCHER\"\n", pkg)
	p.mu.Lock()
	p.logInput("launch", pkg)
	p.beforeInput()
	p.launch(app)
	p.mu.Unlock()
	e.out("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")
	return 0
}

func (p *Phone) packages() []appInfo {
	out := make([]appInfo, 0, len(apps)+len(otherPackages)+1)
	for _, a := range apps {
		l, _ := p.cfg.Skin.info(a.Package)
		out = append(out, l)
	}
	for _, pkg := range otherPackages {
		out = append(out, appInfo{Package: pkg, System: true})
	}
	p.mu.Lock()
	if p.st.IMEInstalled {
		out = append(out, appInfo{Package: "com.android.adbkeyboard"})
	}
	p.mu.Unlock()
	return out
}

func (p *Phone) cmdPm(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) >= 2 && args[0] == "list" && args[1] == "packages" {
		third, system, withPath := false, false, false
		filter := ""
		for _, a := range args[2:] {
			switch {
			case a == "-3":
				third = true
			case a == "-s":
				system = true
			case a == "-f":
				withPath = true
			case strings.HasPrefix(a, "-"):
			default:
				filter = a
			}
		}
		for _, a := range p.packages() {
			if (third && a.System) || (system && !a.System) || !strings.Contains(a.Package, filter) {
				continue
			}
			if withPath {
				e.out("package:%s=%s\n", apkPath(a.Package), a.Package)
			} else {
				e.out("package:%s\n", a.Package)
			}
		}
		return 0
	}
	if len(args) >= 2 && args[0] == "path" {
		for _, a := range p.packages() {
			if a.Package == args[1] {
				e.out("package:%s\n", apkPath(a.Package))
				return 0
			}
		}
		return 1
	}
	e.err("usage: pm list packages [-3] [-s] [-f] [FILTER]\n       pm path PACKAGE\n")
	return 1
}
