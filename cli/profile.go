package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/profile"
	"github.com/trawler/trawler/db"
)

func init() {
	register("profile", "write, check and list crawl profiles (settings as TOML)", runProfile)
}

const profileUsage = `Usage:
  trawler profile export [--preset NAME] [--profile F] [--db F --crawl ID] [flags] [SEED...]
  trawler profile check FILE
  trawler profile presets

export writes a profile with every setting and a comment for each to standard
output (or --out): the defaults, or a stored crawl's settings (--crawl), with
--preset, --profile and the setting flags of "trawler crawl" applied in that
order. It never holds a password. check reads a profile as "trawler crawl
--profile" would and names the line of the first problem. presets lists the
built-in presets.`

func runProfile(args []string, s IO) int {
	if len(args) == 0 {
		fmt.Fprintln(s.Err, profileUsage)
		return ExitUsage
	}
	switch args[0] {
	case "export":
		return runProfileExport(args[1:], s)
	case "check":
		return runProfileCheck(args[1:], s)
	case "presets":
		for _, p := range profile.Presets() {
			fmt.Fprintf(s.Out, "%-8s %s\n", p.Name, p.Description)
		}
		return ExitOK
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(s.Out, profileUsage)
		return ExitOK
	}
	return fail(s, "profile", usagef("unknown subcommand %q: export, check or presets", args[0]))
}

func runProfileExport(args []string, s IO) int {
	fs := newFlagSet("profile export", s, profileUsage)
	flagged := crawl.DefaultConfig()
	settingFlags(fs, &flagged)
	src := addSourceFlags(fs)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "start from the settings of this stored crawl")
	out := fs.String("out", "-", "output file, - for standard output")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	base := crawl.DefaultConfig()
	if *id != 0 {
		d, err := openDB(*dbPath)
		if err != nil {
			return fail(s, "profile export", err)
		}
		base, err = storedSettings(d, *id)
		d.Close()
		if err != nil {
			return fail(s, "profile export", err)
		}
	}
	c, err := settings(fs, base, flagged, src)
	if err != nil {
		return fail(s, "profile export", err)
	}
	v := c
	if len(v.Seeds) == 0 {
		v.Seeds = []string{"http://localhost/"} // a profile need not name seeds
	}
	if err := v.Validate(); err != nil {
		return fail(s, "profile export", usagef("%v", err))
	}
	var buf bytes.Buffer
	if err := profile.Save(&buf, c); err != nil {
		return fail(s, "profile export", err)
	}
	if *out == "-" {
		_, err = s.Out.Write(buf.Bytes())
	} else {
		err = os.WriteFile(*out, buf.Bytes(), 0o644)
	}
	if err != nil {
		return fail(s, "profile export", fmt.Errorf("write the profile: %w", err))
	}
	return ExitOK
}

// storedSettings returns the settings crawl id was created with.
func storedSettings(d *db.DB, id int64) (crawl.Config, error) {
	crawlID, err := pickCrawl(d, id)
	if err != nil {
		return crawl.Config{}, err
	}
	c, err := d.Settings(context.Background(), crawlID)
	if err != nil {
		return c, &storageError{err}
	}
	return c, nil
}

func runProfileCheck(args []string, s IO) int {
	if len(args) != 1 {
		return fail(s, "profile check", usagef("give one profile FILE"))
	}
	f, err := os.Open(args[0])
	if err != nil {
		return fail(s, "profile check", usagef("cannot read the profile: %v", err))
	}
	defer f.Close()
	if _, err := profile.Load(f); err != nil {
		return fail(s, "profile check", usagef("%s: %v", args[0], err))
	}
	fmt.Fprintf(s.Out, "%s: ok\n", args[0])
	return ExitOK
}
