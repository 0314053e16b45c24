import { startSubsetPage } from '@/lib/offscreen/subset-page';

startSubsetPage();
