package device

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
)

// packages returns the installed packages, cached for a short while.
func (d *adbDevice) packages(ctx context.Context, fresh bool) ([]string, error) {
	d.mu.Lock()
	if !fresh && d.pkgs != nil && time.Since(d.pkgsAt) < 30*time.Second {
		p := d.pkgs
		d.mu.Unlock()
		return p, nil
	}
	d.mu.Unlock()
	out, err := d.shell(ctx, "pm list packages")
	if err != nil {
		return nil, fmt.Errorf("device %s: pm list packages: %w", d.serial, err)
	}
	pkgs := parsePackages(out)
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("device %s: `pm list packages` listed nothing: %q", d.serial, clip(out))
	}
	d.mu.Lock()
	d.pkgs, d.pkgsAt = pkgs, time.Now()
	d.mu.Unlock()
	return pkgs, nil
}

// ResolveApp turns an app name (English or Chinese display name, or a
// package) into an installed package.
func (d *adbDevice) ResolveApp(ctx context.Context, app string) (string, error) {
	app = strings.TrimSpace(app)
	if app == "" {
		return "", &AppNotFoundError{App: app}
	}
	for _, fresh := range []bool{false, true} {
		installed, err := d.packages(ctx, fresh)
		if err != nil {
			if ctx.Err() != nil {
				return "", err
			}
			// Without the package list, trust the table or the package name.
			if cands, ok := LookupApp(app); ok {
				return cands[0], nil
			}
			if looksLikePackage(app) {
				return app, nil
			}
			return "", err
		}
		if pkg, ok := pickPackage(app, installed); ok {
			return pkg, nil
		}
		if fresh {
			nf := &AppNotFoundError{App: app, Suggestions: suggest(app, installed)}
			if cands, ok := LookupApp(app); ok {
				nf.Package = cands[0]
				nf.Suggestions = without(nf.Suggestions, AppName(cands[0]))
			} else if looksLikePackage(app) {
				nf.Package = app
			}
			return "", nf
		}
	}
	panic("unreachable")
}

func without(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// pickPackage finds the installed package for a name: the table's
// packages, the name itself as a package, then a package whose last (or
// any) segment equals the name.
func pickPackage(app string, installed []string) (string, bool) {
	has := make(map[string]bool, len(installed))
	for _, p := range installed {
		has[p] = true
	}
	if cands, ok := LookupApp(app); ok {
		for _, c := range cands {
			if has[c] {
				return c, true
			}
		}
	}
	if has[app] {
		return app, true
	}
	q := normName(app)
	if q == "" {
		return "", false
	}
	for _, p := range installed {
		if normName(p[strings.LastIndexByte(p, '.')+1:]) == q {
			return p, true
		}
	}
	for _, p := range installed {
		for _, seg := range strings.Split(p, ".")[1:] {
			if normName(seg) == q {
				return p, true
			}
		}
	}
	return "", false
}

func (d *adbDevice) Launch(ctx context.Context, app string) error {
	pkg, err := d.ResolveApp(ctx, app)
	if err != nil {
		var nf *AppNotFoundError
		if errors.As(err, &nf) {
			return err
		}
		return notSent(err)
	}
	cmd := "monkey -p " + adb.Quote(pkg) + " -c android.intent.category.LAUNCHER 1"
	out, err := d.runSent(ctx, cmd)
	if err != nil {
		return err
	}
	if strings.Contains(out, "No activities found") || strings.Contains(out, "monkey aborted") {
		installed, _ := d.packages(ctx, false)
		return &AppNotFoundError{App: app, Package: pkg, Suggestions: without(suggest(app, installed), AppName(pkg))}
	}
	if commandFailed(out) && !strings.Contains(out, "Events injected") {
		return fmt.Errorf("device %s: launching %s failed: %s", d.serial, pkg, clip(out))
	}
	_, err = d.Settle(ctx)
	return sent(err)
}
