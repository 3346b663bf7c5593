package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/memory"
)

func init() { rootCmd.AddCommand(newMemoryCmd()) }

func newMemoryCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "List, show and delete what goals remember for later goals",
		Long: `memory manages the facts goals learned for later goals on the same phone
(docs/design.md §8): todos verified done and the person's answers to
questions, never a password, PIN, code or approval. The planner is shown the
newest of them in every plan and replan request of a goal on that phone
(or, with memory.user set on the worker, of that person on any phone).
They live in memory.path (default <data_dir>/memory) on the host whose worker
plans the goals; memory.enabled: false stops learning and showing them.`,
		Example: `  starter memory list
  starter memory list --device emulator-5554
  starter memory show m-28c8dc46de5b
  starter memory delete m-28c8dc46de5b
  starter memory clear --device emulator-5554`,
	}
	cmd.AddCommand(newMemoryListCmd(), newMemoryShowCmd(), newMemoryDeleteCmd(), newMemoryClearCmd())
	return cmd
}

// openMemory opens the memory store of the configured data directory.
func openMemory(cmd *cobra.Command) (*memory.Store, error) {
	cfg, _, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
	if err != nil {
		return nil, usageError{err}
	}
	dir := cfg.Memory.Path
	if dir == "" {
		dir = filepath.Join(cfg.DataDir, "memory")
	}
	return memory.Open(dir)
}

// openScope opens the store and reads the scope the flags name, checking
// the flags first.
func openScope(cmd *cobra.Command, serial, user string) (*memory.Store, string, error) {
	scope, err := scopeOf(serial, user)
	if err != nil {
		return nil, "", err
	}
	s, err := openMemory(cmd)
	return s, scope, err
}

// scopeOf is the scope a --device or --user flag names ("" = every scope).
func scopeOf(serial, user string) (string, error) {
	switch {
	case serial != "" && user != "":
		return "", usageError{errors.New("--device and --user name two scopes: give one of them")}
	case user != "":
		return memory.UserScope(user), nil
	case serial != "":
		return memory.PhoneScope(serial), nil
	}
	return "", nil
}

func newMemoryListCmd() *cobra.Command {
	var asJSON bool
	var serial, user string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the remembered facts, newest first",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, scope, err := openScope(cmd, serial, user)
			if err != nil {
				return err
			}
			fs, lerr := s.List(scope)
			if err := writeList(cmd.OutOrStdout(), asJSON, fs, func(w io.Writer, fs []memory.Fact) { printFacts(w, s.Dir(), fs) }); err != nil {
				return err
			}
			return lerr
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.Flags().StringVar(&serial, "device", "", "only the facts of this phone (serial)")
	cmd.Flags().StringVar(&user, "user", "", "only the facts of this person (memory.user)")
	config.BindFlags(cmd.Flags())
	return cmd
}

func printFacts(w io.Writer, dir string, fs []memory.Fact) {
	if len(fs) == 0 {
		fmt.Fprintf(w, "nothing remembered in %s yet: a todo verified done or an answer to a question teaches a fact\n", dir)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSCOPE\tSOURCE\tSEEN\tLEARNED\tFACT")
	for _, f := range fs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", f.ID, f.Scope, f.Source, f.Seen, f.Learned.UTC().Format(time.DateTime), f.Text)
	}
	tw.Flush()
}

func newMemoryShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one fact: its text, scope, source and the goal that taught it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openMemory(cmd)
			if err != nil {
				return err
			}
			f, err := s.Get(args[0])
			if err != nil {
				if errors.Is(err, memory.ErrNotFound) {
					return notFoundError{err}
				}
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(f)
			}
			fmt.Fprintf(out, "fact %s\n  text:    %s\n  scope:   %s\n  source:  %s\n  goal:    %s\n  learned: %s (seen in %d goals)\n",
				f.ID, f.Text, f.Scope, f.Source, f.Goal, f.Learned.UTC().Format(time.RFC3339), f.Seen)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the fact as JSON")
	config.BindFlags(cmd.Flags())
	return cmd
}

func newMemoryDeleteCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "delete ID...",
		Short: "Forget facts: later goals are not shown them",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openMemory(cmd)
			if err != nil {
				return err
			}
			for _, id := range args {
				if err := s.Delete(id); err != nil {
					if errors.Is(err, memory.ErrNotFound) {
						return notFoundError{err}
					}
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "deleted %s\n", id)
			}
			return nil
		},
	}
	config.BindFlags(cmd.Flags())
	return cmd
}

func newMemoryClearCmd() *cobra.Command {
	var serial, user string
	cmd := &cobra.Command{
		Use:   "clear",
		Short: "Forget every fact, or those of one phone (--device) or person (--user)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, scope, err := openScope(cmd, serial, user)
			if err != nil {
				return err
			}
			n, err := s.Clear(scope)
			fmt.Fprintf(cmd.OutOrStdout(), "deleted %d facts from %s\n", n, s.Dir())
			return err
		},
	}
	cmd.Flags().StringVar(&serial, "device", "", "only the facts of this phone (serial)")
	cmd.Flags().StringVar(&user, "user", "", "only the facts of this person (memory.user)")
	config.BindFlags(cmd.Flags())
	return cmd
}
