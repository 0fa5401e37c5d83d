/**
 * Stop words: function words every answer uses whatever its author, so they would only
 * blur the lexical signature of an assistant. Words of one or two letters are dropped by the
 * tokeniser anyway and are not listed. A catalogue can add its own words (for instance a
 * place name present in every system prompt).
 */

export type StopWordLanguage = 'en' | 'fr';

const ENGLISH = `
about above after again against all also although always among and another any anyone
anything are aren around because been before being below between both but can cannot could
couldn did didn does doesn doing done don down during each either else enough even ever
every few for from further get gets getting give given goes going got had hadn has hasn have
haven having her here hers herself him himself his how however into isn its itself just
keep less let like made make makes many may might more most much must need needs neither
never nor not now off often once one only onto other others our ours ourselves out over own
perhaps quite rather really said same say says see seem seems several shall she should
shouldn since some something sometimes still such than that the their theirs them themselves
then there these they thing things this those though through thus too under until upon very
want was wasn way ways well were weren what whatever when where whether which while who whom
whose why will with within without won would wouldn yet you your yours yourself yourselves
`;

const FRENCH = `
afin ainsi alors après assez au aucun aucune aussi autant autre autres aux avait avant avec
avez avoir avons beaucoup bien car ceci cela celle celles celui certain certaines certains
ces cet cette ceux chaque chez comme comment dans des donc dont déjà elle elles encore entre
est été étaient était être eux fait faire faites fois font ici ils jamais leur leurs lors
lorsque mais même mêmes mes moi moins mon nos notre nous ont par parce parfois pas peu peut
peuvent peux plus plutôt pour pourquoi puis quand que quel quelle quelles quels qui quoi
sans sera seront ses sien sienne son sont sous souvent surtout sur tant tel telle telles tels
toi ton tous tout toute toutes toujours très trop une vers voici voilà vos votre vous
doit doivent faut êtes rien quelque quelques chose choses
`;

const LISTS: Record<StopWordLanguage, ReadonlySet<string>> = {
  en: new Set(words(ENGLISH)),
  fr: new Set(words(FRENCH)),
};

/**
 * The shipped list of a language (the union of the lists, for several: a catalogue whose
 * answers mix languages needs every list), plus the extra words given (lower-cased).
 */
export function stopWords(
  language: StopWordLanguage | readonly StopWordLanguage[],
  extra: readonly string[] = [],
): ReadonlySet<string> {
  const languages: readonly StopWordLanguage[] =
    typeof language === 'string' ? [language] : language;
  return new Set([
    ...languages.flatMap((l) => [...LISTS[l]]),
    ...extra.map((w) => w.normalize('NFC').toLowerCase()),
  ]);
}

function words(list: string): string[] {
  return list
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => w.normalize('NFC'));
}
