// The claim page's keyboard shortcuts (issue 28), as the alerts list has them.
export const claim = {
  shortcuts: 'Keyboard shortcuts',
  keys: [
    ['j', 'next alert'],
    ['k', 'previous alert'],
    ['o', 'open the alert'],
    ['l', 'open the letter preview'],
    ['p', 'download the letter (PDF)'],
    ['r', 'record a refund: go to the amount'],
    ['n', 'attach a credit note: go to the search'],
    ['?', 'show or hide these shortcuts'],
  ] as [string, string][],
};
