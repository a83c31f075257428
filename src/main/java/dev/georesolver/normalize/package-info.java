/**
 * Address normalization and idempotency keys.
 *
 * <p>{@link dev.georesolver.normalize.AddressNormalizer} turns an address into lower-case words
 * joined by single blanks; {@link dev.georesolver.normalize.IdempotencyKey} hashes that string with
 * the canonical bbox. The guiding rule: when a spelling is ambiguous, prefer two keys for one
 * address (a cache miss) over one key for two addresses (a wrong answer).
 *
 * <h2>Characters</h2>
 * <ul>
 *   <li>Unicode NFKC, then lower case in {@link java.util.Locale#ROOT}; "ß" becomes "ss"; digits
 *       of any script become ASCII. Diacritics are kept ("montréal" ≠ "montreal").
 *   <li>Punctuation and symbols separate words, except: "-" between digits is kept ("12-14",
 *       "63101-1234", also written "12 – 14"); "-" between a digit and a letter is dropped
 *       ("4-b" → "4b"); "/" between digits is kept ("1/2"; "½" and "123½" become "1/2" and
 *       "123 1/2"); "." between digits is kept; dotted initials join ("n.e." → "ne",
 *       "p.o." → "po"); apostrophes vanish ("o'brien" → "obrien"); "&amp;" becomes "and";
 *       "#" marks a unit.
 *   <li>Commas, semicolons and line breaks split the address into segments. They are not in the
 *       result, but the st/ste/dr rule below does not look across them. The rules whose result is
 *       still an ambiguous word (a letter kept as a letter, "11 th" kept apart, a state code) do
 *       look across them, so that normalizing a normalized string changes nothing.
 *   <li>Leading zeros are kept everywhere ("007" ≠ "7"), since postcodes and some house numbers
 *       depend on them.
 * </ul>
 *
 * <h2>Canonical forms</h2>
 * <ul>
 *   <li>Street suffixes: every USPS Publication 28 Appendix C1 spelling becomes the full
 *       lower-case primary name ("st", "str", "strt" → "street"; "ave", "av", "avn" → "avenue";
 *       "hwy" → "highway"; "centre" → "center"; "trls" → "trail"). Plural forms that USPS folds
 *       into the singular ("trails", "parks", "walks") are folded too. "via", which USPS lists for
 *       viaduct, stays the Italian "via". A few Commonwealth forms are added: "tce", "crt",
 *       "pde", "cct", "esp".
 *   <li>Unit designators (Appendix C2) become full words: "apt" → "apartment", "ste" → "suite",
 *       "bldg" → "building", "fl" → "floor", "rm" → "room", "ph" → "penthouse", "spc" → "space",
 *       and so on. A bare "#" becomes "unit"; after a designator it is dropped
 *       ("apt #4" = "apartment 4"). Designators are not merged with each other: "apt 4" ≠ "unit 4".
 *   <li>Directionals: "n", "s", "e", "w", "ne", "nw", "se", "sw" (and "n.", "n.e.") become
 *       "north" … "southwest".
 *   <li>Ordinals are numeric: "1st", "1 st" (before a street type or directional), "first" →
 *       "1st"; "twenty-first" → "21st". Cardinal words ("one main st") are not converted.
 *   <li>Saints: "st" → "saint", "ste" → "sainte", "sankt"/"sint" → "saint", where they begin a
 *       name (see below).
 *   <li>German: "straße", "strasse", "str." → "strasse", also in compounds ("hauptstr.",
 *       "hauptstraße" → "hauptstrasse"). Dutch: "straat"; "str." → "straat" when the address
 *       names the Netherlands or Belgium.
 *   <li>French: "rue"; "av." → "avenue"; "bd", "boul", "bvd" → "boulevard"; "imp" → "impasse";
 *       "chem" → "chemin"; "fbg" → "faubourg"; "allée" → "alley" (as USPS "allee").
 *   <li>Spanish and Portuguese: "avenida", "avda", "av." → "avenue" (deliberately the same as the
 *       English and French "av.", which cannot be told apart without knowing the language);
 *       "c/" → "calle"; "ctra" → "carretera"; "rua" stays.
 *   <li>Italian: "via"; "viale"/"v.le"; "piazza"/"p.zza"/"p.za"; "piazzale"/"p.le";
 *       "corso"/"c.so"; "largo"/"l.go"; "vicolo"/"v.lo".
 *   <li>"post office box", "p.o. box", "p o box" → "po box".
 * </ul>
 *
 * <h2>Positional rules</h2>
 * <ul>
 *   <li><b>st / ste / dr.</b> Read as "saint" / "sainte" / "doctor" when a name word follows in
 *       the same segment and what precedes is nothing, a number, a directional, an abbreviated
 *       street type, a leading street type (rue, avenue, via, place …), one of "port", "fort",
 *       "mount", "pointe", "île", or a unit identifier. Otherwise "street" / "suite" / "drive".
 *       So "st. louis" → "saint louis", "st paul st" → "saint paul street", "main st" →
 *       "main street", "100 main st, st louis" → "100 main street saint louis",
 *       "main st ste 200" → "main street suite 200", "ste genevieve" → "sainte genevieve",
 *       and, without a comma, "main st louis" → "main street louis".
 *   <li><b>Directionals</b> stay a letter when they name a letter street (a street type follows
 *       and ends the street: "e st nw" → "e street northwest", while "n park ave" →
 *       "north park avenue"), when a single letter follows a leading street type
 *       ("avenue n"), or when they are a unit identifier ("apt n").
 *   <li><b>Region codes.</b> A US state code followed by a ZIP code is left alone
 *       ("hartford, ct 06103" keeps "ct", "omaha ne 68102" keeps "ne"). Without a ZIP a code that
 *       is also a USPS word is read as that word ("hartford, ct" → "hartford court"), for every
 *       spelling alike: the result must not depend on commas, which it drops.
 *   <li><b>str.</b> Standalone "str" is "street" in an address that starts with its house number
 *       (the English order) and names no German- or Dutch-speaking country, else "strasse"
 *       (or "straat", see above).
 *   <li><b>Units.</b> After a designator that takes an identifier, a digit-led word, a single
 *       letter or a directional abbreviation is kept as written ("apt e" stays "e").
 * </ul>
 *
 * <h2>Structured components</h2>
 * Components are joined in {@link dev.georesolver.normalize.AddressNormalizer#COMPONENT_ORDER}:
 * house number, street, unit, locality, region, postcode, country; blank ones are dropped and
 * unknown keys ignored. Each component is a segment, so the result is guaranteed to equal the
 * free text of the non-blank components joined with {@code ", "}, except that a unit component
 * without a designator ("4b") reads as "unit 4b". Joined with blanks only, the same holds where no
 * positional rule reads across a boundary (it does for "main" + "st louis").
 *
 * <h2>Known limitations</h2>
 * <ul>
 *   <li>Region and country names are not mapped to codes ("missouri" ≠ "mo",
 *       "usa" ≠ "united states"); diacritics are not folded.
 *   <li>Without a ZIP, colliding state codes read as USPS words ("omaha, ne" → "omaha northeast",
 *       "miami fl" → "miami floor"): consistent, so keys agree, but not pretty.
 *   <li>Without a comma, "st" after a plain name ends the street: "main st louis" and
 *       "main st, st louis" differ. Comma-free "lake st louis" reads "lake street louis".
 *   <li>"floor 4" ≠ "4th floor"; "12 a" ≠ "12a"; "n e" with a blank is not "ne"; cardinal words
 *       are not numbers ("one" ≠ "1"); "5/123 main st" (unit/number) stays as written, and
 *       "5 - 123" reads as the range "5-123".
 *   <li>A German address given as structured components without a country reads a standalone
 *       "str." as "street", because the house number comes first in component order.
 *   <li>A single "e" or "s" in a Romance address ("rua a e b", "s. marco") reads as a directional,
 *       the same way for every spelling.
 * </ul>
 */
package dev.georesolver.normalize;
