/** An accession as it stands in Archives paths: `0001104659-25-025206` -> `000110465925025206`. */
export const noDashes = (accession: string): string => accession.replace(/-/g, '');

/** Text made safe inside XML or HTML markup (element text and quoted attributes). */
export const escapeMarkup = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
