// The README's main job: one question answered in the sandbox (this file is sandbox code).
const phase2 = award_data.filter((d) => d.Phase === 'Phase II').numRows();
print(`${award_data.numRows()} awards, ${phase2} of them Phase II.`);
print('Total award dollars by agency, top 5:');
award_data.groupby('Agency').agg({ 'Award Amount': 'sum' }).sort_values('Award Amount', { ascending: false }).head(5);
