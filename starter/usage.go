package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// wireUsage makes every way a command line can be wrong exit 2 (usage), as
// docs/cli.md says: an unknown command at the top (cobra's own error), an
// unknown subcommand of a group such as `schedule` (cobra would print the
// group's help and exit 0), and the wrong number of arguments.
func wireUsage(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) == 0 {
					return c.Help()
				}
				msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
				if s := c.SuggestionsFor(args[0]); len(s) > 0 {
					msg += fmt.Sprintf("; did you mean %q?", s[0])
				}
				return usageError{fmt.Errorf("%s (run `%s --help` for its commands)", msg, c.CommandPath())}
			}
		}
		if args := c.Args; args != nil {
			c.Args = func(c *cobra.Command, a []string) error {
				if err := args(c, a); err != nil {
					return usageError{err}
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// usageOf marks cobra's own error for an unknown top-level command as a
// usage error.
func usageOf(err error) error {
	if err != nil && strings.HasPrefix(err.Error(), "unknown command ") {
		return usageError{err}
	}
	return err
}
