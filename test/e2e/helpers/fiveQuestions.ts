// The five questions every bundle must answer, the same on every target: a count, a group-by, a
// sum, a value count and one over the long-text Abstract column.
export const FIVE_QUESTIONS = [
  { name: 'rows', code: 'award_data.numRows()' },
  { name: 'group-by', code: "award_data.groupby('Agency').count().orderby('Agency').objects()" },
  { name: 'sum', code: "Math.round(award_data['Award Amount'].sum())" },
  { name: 'value-counts', code: "value_counts(award_data, 'Phase').orderby('Phase').objects()" },
  {
    name: 'long-text',
    code: "[award_data.rollup({ chars: d => aq.op.sum(aq.op.length(d.Abstract)) }).object().chars, award_data.filter(d => aq.op.includes(d.Abstract, 'digital twin')).numRows()]",
  },
] as const;
