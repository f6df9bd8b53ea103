package db

import (
	"context"
	"database/sql"
	"strings"
)

// A search asked about one page at a time (a walk that checks the rows it
// meets, a snippet for a listed row) costs FTS5 one query each. For an
// exact word that is a seek in the word's list of pages; for a prefix
// ("craw" finding "crawler"), FTS5 first merges the lists of every word
// starting with it, which for a word on a million pages takes tens of
// milliseconds, every time. So the query asked about single pages has
// each prefix replaced by the words it stands for, read from the index's
// vocabulary (pages_fts_words, schema 7): "craw"* becomes ("crawl" OR
// "crawler" OR "crawling"). It matches the same pages and the same
// instances, so snippets mark the same words; only bm25's rank differs, so
// relevance is computed with the query as typed.

// maxExpand is the most words a prefix is replaced by; a prefix standing
// for more stays a prefix.
const maxExpand = 16

// probeQuery returns the FTS5 query of what the user typed in the form to
// ask about single pages, and whether that is cheap: it has no prefix
// left. A query in FTS5's own syntax is kept as written.
func (d *DB) probeQuery(ctx context.Context, typed string) (match string, cheap bool, err error) {
	match, cheap, _, err = d.expandQuery(ctx, typed)
	return match, cheap, err
}

// rankQuery returns the FTS5 query to rank what the user typed with: its
// probe form when that ranks the same (each prefix stands for one word at
// most, so the phrases and their matches are those of the query as
// typed), which spares FTS5 merging a prefix's pages twice (bm25 counts a
// phrase's pages); otherwise the query as typed.
func (d *DB) rankQuery(ctx context.Context, typed string) (string, error) {
	match, _, same, err := d.expandQuery(ctx, typed)
	if err != nil || same {
		return match, err
	}
	return ftsQuery(typed)
}

// expandQuery returns the probe form of what the user typed (see
// probeQuery), whether it is cheap, and whether it ranks as the query as
// typed does.
func (d *DB) expandQuery(ctx context.Context, typed string) (match string, cheap, same bool, err error) {
	typed = strings.TrimSpace(typed)
	if strings.HasPrefix(typed, AdvancedPrefix) {
		match, err := ftsQuery(typed)
		return match, err == nil && !strings.Contains(match, "*"), true, err
	}
	parts := plainParts(typed)
	if len(parts) == 0 {
		_, err := ftsQuery(typed)
		return "", false, false, err
	}
	cheap, same = true, true
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.String()
		if !p.prefix {
			continue
		}
		word, ok := foldASCII(p.words[0])
		if !ok {
			cheap = false
			continue
		}
		words, err := d.wordsWithPrefix(ctx, word, maxExpand+1)
		if err != nil {
			return "", false, false, err
		}
		switch {
		case len(words) > maxExpand:
			cheap = false
		case len(words) == 0:
			out[i] = `"` + word + `"` // no word starts with it: neither matches anything
		default:
			out[i] = `("` + strings.Join(words, `" OR "`) + `")`
			same = same && len(words) == 1
		}
	}
	return strings.Join(out, " AND "), cheap, same, nil
}

// foldASCII returns an ASCII word as the index holds it (lower case);
// false for a word with other characters, whose folding (accents) the
// tokenizer knows better.
func foldASCII(w string) (string, bool) {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return "", false
		}
	}
	return strings.ToLower(w), true
}

// wordsWithPrefix returns the words of the full-text index that start
// with prefix, in order, up to limit of them: each is the first word of
// the vocabulary not before the last one found (the index seeks to it).
func (d *DB) wordsWithPrefix(ctx context.Context, prefix string, limit int) ([]string, error) {
	var words []string
	from := prefix
	for len(words) < limit {
		var w string
		err := d.r.QueryRowContext(ctx, `SELECT term FROM pages_fts_words WHERE term >= ? LIMIT 1`, from).Scan(&w)
		if err == sql.ErrNoRows || (err == nil && !strings.HasPrefix(w, prefix)) {
			break
		}
		if err != nil {
			return nil, wrap(err, "read the words starting with %q", prefix)
		}
		words = append(words, w)
		from = w + "\x01" // words hold no control characters: the next word is past this
	}
	return words, nil
}
