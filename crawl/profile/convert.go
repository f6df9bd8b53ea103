package profile

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/secret"
)

// size is a byte count written with a unit when one fits exactly: "10MiB".
// A profile may give it as a string with a unit or as a whole number.
type size int64

func (s size) MarshalText() ([]byte, error) {
	n := int64(s)
	for _, u := range []struct {
		name string
		n    int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if n != 0 && n%u.n == 0 {
			return []byte(strconv.FormatInt(n/u.n, 10) + u.name), nil
		}
	}
	return []byte(strconv.FormatInt(n, 10)), nil
}

func (s *size) UnmarshalText(b []byte) error {
	v := strings.TrimSpace(string(b))
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		*s = size(n)
		return nil
	}
	n, err := humanize.ParseBytes(v)
	if err != nil || !strings.ContainsAny(v, "BbKkMmGgTtPpEe") || n > 1<<62 {
		return errors.New(`want a size like "10MB" or "512KiB", or a whole number of bytes`)
	}
	*s = size(n)
	return nil
}

var (
	durationType = reflect.TypeFor[duration]()
	authType     = reflect.TypeFor[[]hostAuth]()
)

// fromConfig is c as a profile, without passwords.
func fromConfig(c crawl.Config) file {
	c = secret.Strip(c)
	var f file
	fv, cv := reflect.ValueOf(&f).Elem(), reflect.ValueOf(c)
	for i := range fv.NumField() {
		dst, src := fv.Field(i), cv.FieldByName(fv.Type().Field(i).Name)
		switch dst.Type() {
		case durationType:
			dst.Set(reflect.ValueOf(duration{time.Duration(src.Int())}))
		case authType:
			for _, a := range c.Auth {
				f.Auth = append(f.Auth, hostAuth{Host: a.Host, User: a.User})
			}
		default:
			copyValue(dst, src)
		}
	}
	return f
}

// toConfig is the profile over base: every keyed field as the profile
// has it, with base's passwords kept for the auth entries (same host and
// user) the profile still lists, and the Unkeyed fields as base has them.
func (f file) toConfig(base crawl.Config) crawl.Config {
	c := base
	c.Auth = nil
	fv, cv := reflect.ValueOf(f), reflect.ValueOf(&c).Elem()
	for i := range fv.NumField() {
		src, dst := fv.Field(i), cv.FieldByName(fv.Type().Field(i).Name)
		switch src.Type() {
		case durationType:
			dst.SetInt(int64(src.Interface().(duration).Duration))
		case authType:
			for _, a := range f.Auth {
				h := crawl.HostAuth{Host: a.Host, User: a.User}
				for _, b := range base.Auth {
					if b.Host == a.Host && b.User == a.User {
						h.Password = b.Password
					}
				}
				c.Auth = append(c.Auth, h)
			}
		default:
			copyValue(dst, src)
		}
	}
	return c
}

// copyValue sets dst to src, converting between named and plain types;
// lists are copied, and an empty list becomes nil as in DefaultConfig.
func copyValue(dst, src reflect.Value) {
	if src.Kind() != reflect.Slice {
		dst.Set(src.Convert(dst.Type()))
		return
	}
	if src.Len() == 0 {
		dst.Set(reflect.Zero(dst.Type()))
		return
	}
	list := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
	for i := range src.Len() {
		list.Index(i).Set(src.Index(i).Convert(dst.Type().Elem()))
	}
	dst.Set(list)
}

// Keys lists the profile's keys in file order; they are also the names of
// `trawler crawl`'s setting flags.
func Keys() []string {
	t := reflect.TypeFor[file]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = tomlKey(t.Field(i))
	}
	return keys
}

// Comment is the explanation a saved profile gives for key, for flag help.
func Comment(key string) string {
	if f, ok := fieldOf(key); ok {
		return f.Tag.Get("comment")
	}
	return ""
}

func tomlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return k
}

func fieldOf(key string) (reflect.StructField, bool) {
	t := reflect.TypeFor[file]()
	for i := range t.NumField() {
		if tomlKey(t.Field(i)) == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// Override copies into dst the settings of src named by keys, so flags
// given beside a profile win over it: pass the names of the flags the user
// gave. Names that are not profile keys (--db, --profile …) are ignored;
// auth entries keep src's passwords.
func Override(dst *crawl.Config, src crawl.Config, keys []string) {
	dv, sv := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for _, k := range keys {
		f, ok := fieldOf(k)
		if !ok {
			continue
		}
		copyValue(dv.FieldByName(f.Name), sv.FieldByName(f.Name))
	}
}
